import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import type { UploadedFile } from '../components/type-fields'
import { ApiError, serverFieldErrors, serverMessage } from '@/lib/api-client'
import { saveBlob } from '@/lib/save-file'
import { toast } from '@/lib/use-toast'
import {
  anonymousSessionId,
  downloadGenerated,
  downloadSaved,
  generateCode,
  restyleCode,
  savedListKeys,
  saveDynamicCode,
  saveStaticCode,
  setDestination,
  toFormData,
  trackGeneration,
  trialStatusQueryKey,
  type CodeBody,
  type DownloadFormat,
  type DownloadOptions,
  type SavedCode,
  type TrialStatus,
  updateStaticCode,
  uploadDocument,
} from '../api/generator-api'
import type { QrType } from '@/lib/qr-types'
import { dynamicDestinationField } from '../lib/qr-types'
import { saveFieldValues, typeFieldValues } from '../lib/request'
import type { TypeValues } from '../lib/schemas'
import { styleFields, type StyleState } from '../lib/style'

/** How long after a visitor's download the account dialog opens. */
export const ACCOUNT_PROMPT_DELAY_MS = 1000

/** The sessionStorage key marking that this visit has had the account dialog: once is an offer, every download a nag. */
export const ACCOUNT_PROMPT_SHOWN_KEY = 'squarely.accountPromptShown'

/** Whether this visit (this tab's session) has had the account dialog already; marks it as had. */
function accountPromptHad() {
  try {
    if (sessionStorage.getItem(ACCOUNT_PROMPT_SHOWN_KEY)) return true
    sessionStorage.setItem(ACCOUNT_PROMPT_SHOWN_KEY, '1')
  } catch {
    // Storage refused (a private window's quota, say): show it, as the spec has it.
  }
  return false
}

/** What the last press of 'Generate QR Code' produced: a visitor's generation or a saved code. */
export type Outcome =
  | { kind: 'generated'; svg: string; data: string; body: CodeBody; generationId?: number; type: QrType }
  | { kind: 'saved'; code: SavedCode; type: QrType }

/** The form as it stands when 'Generate QR Code' is pressed. */
export interface CodeRequest {
  qrType: QrType
  fields: TypeValues
  style: StyleState
  /** The style fields plus logoId and the preview size, as the generation endpoints take them. */
  sentStyle: Record<string, unknown>
  logoId?: number
  uploaded: UploadedFile | null
  name: string
  dynamic: boolean
  /** A new dynamic code's chosen short code, '' for a random one. */
  shortCode?: string
}

interface Options {
  signedIn: boolean
  variant: 'landing' | 'dashboard'
  onSaved?: (code: SavedCode) => void
  /** Identifies the form's state: an outcome is retired as soon as the form changes. */
  formKey: string
  /** Field messages from a 400 answer, by field name. */
  onFieldErrors: (errors: Record<string, string>) => void
  /** Opens the account dialog (a visitor's download is followed by it). */
  onAccountPrompt: () => void
  /** The file was sent again with the current title and description: the form takes its new id. */
  onReuploaded: (file: UploadedFile) => void
}

/**
 * The upload a pdf or images code points at, carrying the title and
 * description as they are now: the page a scan opens shows what was typed,
 * whether it was typed before or after the file was picked.
 */
export async function currentUpload(req: CodeRequest): Promise<UploadedFile | null> {
  const up = req.uploaded
  if (!up || (req.qrType !== 'pdf' && req.qrType !== 'images')) return up
  const title = String(req.fields.title ?? '').trim()
  const description = String(req.fields.description ?? '').trim()
  if (title === up.title.trim() && description === up.description.trim()) return up
  const answer = await uploadDocument(up.kind, up.file, title, description)
  return { ...answer, kind: up.kind, file: up.file, title, description }
}

/**
 * The failure toast's text: the spec's sentence, then the server's reason
 * when it refused the request (400): the same reason the live preview showed.
 */
export function failureText(sentence: string, error: unknown) {
  const reason = error instanceof ApiError && error.status === 400 ? serverMessage(error) : undefined
  return reason ? `${sentence} ${reason}` : sentence
}

function limitReached(limit: number | string) {
  toast({
    title: 'Dynamic QR Code limit reached',
    description: `You have reached your limit of ${limit} dynamic QR codes. Please upgrade to create more.`,
    variant: 'destructive',
  })
}

/**
 * Generation, saving and downloading with the toasts of spec 01 §8:
 * visitors generate (POST /api/generate-qrcode), signed-in users save a
 * static or a dynamic code; the result can then be downloaded.
 */
export function useCodeActions({ signedIn, variant, onSaved, formKey, onFieldErrors, onAccountPrompt, onReuploaded }: Options) {
  const queryClient = useQueryClient()
  const [busy, setBusy] = useState(false)
  const [downloading, setDownloading] = useState<DownloadFormat | null>(null)
  const [outcome, setOutcome] = useState<Outcome | null>(null)
  // The code this view saved last: Generate updates it until the user starts a new one.
  const [current, setCurrent] = useState<SavedCode | null>(null)
  const [outcomeKey, setOutcomeKey] = useState(formKey)
  if (outcome && outcomeKey !== formKey) {
    setOutcome(null)
    setOutcomeKey(formKey)
  }
  // The form's key when an outcome settles: a re-upload during the request changes it.
  const latestKey = useRef(formKey)
  useEffect(() => {
    latestKey.current = formKey
  }, [formKey])
  const settle = (next: Outcome) => {
    setOutcome(next)
    setOutcomeKey(latestKey.current)
  }

  const promptTimer = useRef<ReturnType<typeof setTimeout>>(undefined)
  useEffect(() => () => clearTimeout(promptTimer.current), [])

  const trial = useQuery<TrialStatus>({ queryKey: trialStatusQueryKey, enabled: signedIn, refetchInterval: 5 * 60_000 })

  const fieldErrors = (error: unknown) => {
    const errors = serverFieldErrors(error)
    if (errors) onFieldErrors(errors)
  }

  const generate = async (req: CodeRequest) => {
    const body: CodeBody = {
      qrType: req.qrType,
      ...typeFieldValues(req.fields),
      ...req.sentStyle,
      temporary: false,
      sessionId: anonymousSessionId(),
    }
    try {
      const answer = await generateCode(body)
      settle({ kind: 'generated', svg: answer.qrCode, data: answer.data, body, generationId: answer.id, type: req.qrType })
      toast({ title: 'QR Code generated', description: 'Sign in to save your QR codes and track their scans.' })
    } catch (error) {
      fieldErrors(error)
      toast({ title: 'Error', description: failureText('There was a problem generating your QR code.', error), variant: 'destructive' })
    }
  }

  const afterSave = async (req: CodeRequest, code: SavedCode) => {
    settle({ kind: 'saved', code, type: req.qrType })
    setCurrent(code)
    // The client made this generation itself, so it reports it (spec 01 §7).
    trackGeneration({
      qrCodeId: code.qrMode === 'static' ? code.id : undefined,
      qrData: code.data ?? req.fields,
      qrType: req.qrType,
      foregroundColor: req.style.fgColor,
      backgroundColor: req.style.bgColor,
      hasLogo: req.logoId !== undefined,
      sessionId: anonymousSessionId(),
    }).catch((error: unknown) => console.error('track-generation', error))
    await Promise.all(savedListKeys.map((queryKey) => queryClient.invalidateQueries({ queryKey })))
    onSaved?.(code)
  }

  /** A failed update of a code deleted meanwhile: the next press saves a new one. */
  const forgetIfGone = (error: unknown) => {
    if (error instanceof ApiError && error.status === 404) setCurrent(null)
  }

  const saveStatic = async (req: CodeRequest) => {
    const form = toFormData({
      name: req.name.trim(),
      qrType: req.qrType,
      ...saveFieldValues(req.qrType, req.fields),
      ...styleFields(req.style),
      qrMode: 'static',
      logoId: req.logoId,
    })
    const updating = current?.qrMode === 'static' ? current : null
    let code: SavedCode
    try {
      code = updating ? await updateStaticCode(updating.id, form) : await saveStaticCode(form)
    } catch (error) {
      forgetIfGone(error)
      fieldErrors(error)
      toast({ title: 'Error', description: failureText('There was a problem saving your QR code.', error), variant: 'destructive' })
      return
    }
    toast(
      updating
        ? { title: 'QR Code updated', description: `"${code.name}" now holds your changes; no second code was saved.` }
        : { title: 'QR Code saved', description: `"${code.name}" is in My QR Codes.` },
    )
    await afterSave(req, code)
  }

  const saveDynamic = async (req: CodeRequest) => {
    const updating = current?.qrMode === 'dynamic' ? current : null
    // Updating the code made here takes no new slot.
    if (!updating && trial.data?.canCreateDynamicQR === false) {
      limitReached(trial.data.dynamicQRLimit)
      return
    }
    const source = dynamicDestinationField[req.qrType]
    const destination =
      source === 'upload'
        ? (req.uploaded?.pdfUrl ?? req.uploaded?.imageUrl ?? '')
        : String(req.fields[source ?? 'url'] ?? '').trim()
    const style = { ...styleFields(req.style), errorCorrectionLevel: 'M', logoId: req.logoId }
    const form = toFormData({
      destination,
      qrType: req.qrType,
      qrData: JSON.stringify(typeFieldValues(req.fields)),
      name: req.name.trim(),
      shortCode: req.shortCode?.trim(),
      ...style,
      qrStyle: 'squares',
    })
    let code: SavedCode
    try {
      if (updating) {
        // The short link stays: only where it leads and how it looks change.
        await setDestination(updating.id, destination, { qrType: req.qrType, qrData: typeFieldValues(req.fields) })
        code = await restyleCode(updating, toFormData(style))
      } else code = await saveDynamicCode(form)
    } catch (error) {
      forgetIfGone(error)
      if (!updating && error instanceof ApiError && error.status === 403) {
        const message = serverMessage(error)
        if (message?.startsWith('You have reached your limit')) {
          toast({ title: 'Dynamic QR Code limit reached', description: message, variant: 'destructive' })
        } else limitReached(trial.data?.dynamicQRLimit ?? 12)
        return
      }
      fieldErrors(error)
      const status = error instanceof ApiError ? error.status : 'network error'
      const action = updating ? 'update' : 'create'
      toast({ title: 'Error', description: `Failed to ${action} dynamic QR code: ${status}`, variant: 'destructive' })
      return
    }
    toast({
      title: updating ? 'Dynamic QR Code updated' : variant === 'dashboard' ? 'Dynamic QR Code saved' : 'Dynamic QR Code generated',
      description: code.shortUrl ? `It points to ${destination} through ${code.shortUrl}.` : undefined,
    })
    await queryClient.invalidateQueries({ queryKey: trialStatusQueryKey })
    await afterSave(req, code)
  }

  /** 'Generate QR Code' with valid fields. */
  const run = async (given: CodeRequest) => {
    setBusy(true)
    try {
      let req = given
      try {
        const uploaded = await currentUpload(given)
        if (uploaded && uploaded !== given.uploaded) {
          const field = given.qrType === 'pdf' ? 'pdfFile' : 'imageFile'
          req = { ...given, uploaded, fields: { ...given.fields, [field]: String(uploaded.id) } }
          onReuploaded(uploaded)
        }
      } catch {
        toast({ title: given.qrType === 'pdf' ? 'Failed to upload PDF file' : 'Failed to upload image file', variant: 'destructive' })
        return
      }
      if (!signedIn) await generate(req)
      else if (req.dynamic) await saveDynamic(req)
      else await saveStatic(req)
    } finally {
      setBusy(false)
    }
  }

  const download = async (format: DownloadFormat, options?: DownloadOptions) => {
    if (!outcome) return
    setDownloading(format)
    try {
      const blob =
        outcome.kind === 'generated'
          ? await downloadGenerated(outcome.body, format, outcome.generationId, options)
          : await downloadSaved(outcome.code, format, options)
      saveBlob(blob, `${outcome.type}.${format}`)
      toast({ title: 'QR Code Downloaded' })
      if (!signedIn && !accountPromptHad()) {
        clearTimeout(promptTimer.current)
        promptTimer.current = setTimeout(onAccountPrompt, ACCOUNT_PROMPT_DELAY_MS)
      }
    } catch {
      toast({
        title: 'Download Failed',
        description: signedIn
          ? 'There was a problem saving your QR code image.'
          : 'There was a problem downloading your QR code image.',
        variant: 'destructive',
      })
    } finally {
      setDownloading(null)
    }
  }

  return {
    busy,
    downloading,
    outcome,
    run,
    download,
    clearOutcome: () => setOutcome(null),
    /** The saved code that Generate updates, if any. */
    current,
    /** 'Start a new code': the next Generate saves a new code. */
    startNew: () => {
      setCurrent(null)
      setOutcome(null)
    },
  }
}
