import { FileDown } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'

/** GET /api/account/export: the active workspace's data and redirects as a ZIP (the exit guarantee). */
export const accountExportUrl = '/api/account/export'

/** Your data: one download with every code, upload and scan, and the redirects to serve printed codes without Squarely. */
export function ExportCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Your data</CardTitle>
        <CardDescription>
          Download this workspace&apos;s codes, uploads and scans as a ZIP (workspace admins and owners). It includes your dynamic codes&apos; redirects for nginx, Caddy or static pages, so
          printed codes can keep working without Squarely.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Button asChild variant="outline" size="sm">
          <a href={accountExportUrl} download>
            <FileDown aria-hidden="true" />
            Download my data
          </a>
        </Button>
      </CardContent>
    </Card>
  )
}
