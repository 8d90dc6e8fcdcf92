import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiJson, apiRequest } from '@/lib/api-client'
import type { ShareScope } from './share-links'

export type Frequency = 'daily' | 'weekly' | 'monthly'
export type Weekday = 'sunday' | 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday'
export type ReportFormat = 'pdf' | 'csv'

/** A scheduled digest as GET /api/report-schedules lists it (docs/API.md "Report schedules"). */
export interface ReportSchedule {
  id: number
  scope: Partial<{ codeId: number; tagId: number; folderId: number; workspace: boolean }>
  scopeName: string
  frequency: Frequency
  weekday: Weekday | null
  hour: number
  timeZone: string
  format: ReportFormat[]
  recipients: string[]
  sendEmpty: boolean
  nextSendAt: string
  createdBy: number
  canEdit: boolean
}

export interface ReportSchedules {
  schedules: ReportSchedule[]
  /** False when the server has no SMTP settings: nothing is sent. */
  mailEnabled: boolean
  limit: number
}

/** What POST and PUT take. */
export interface ReportScheduleInput {
  scope: ShareScope
  frequency: Frequency
  weekday?: Weekday
  hour: number
  timeZone: string
  format: ReportFormat[]
  recipients: string[]
  sendEmpty: boolean
}

export const reportSchedulesKey = ['/api/report-schedules']

export function useReportSchedules() {
  return useQuery<ReportSchedules>({ queryKey: reportSchedulesKey, refetchOnMount: 'always' })
}

export function useSaveReportSchedule() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: ReportScheduleInput }) =>
      id ? apiJson<ReportSchedule>('PUT', `/api/report-schedules/${id}`, body) : apiJson<ReportSchedule>('POST', '/api/report-schedules', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportSchedulesKey }),
  })
}

export function useDeleteReportSchedule() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: number) => apiRequest('DELETE', `/api/report-schedules/${id}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: reportSchedulesKey }),
  })
}

export function useSendReportNow() {
  return useMutation({
    mutationFn: (id: number) => apiJson<{ sent: number; message: string }>('POST', `/api/report-schedules/${id}/send-now`),
  })
}
