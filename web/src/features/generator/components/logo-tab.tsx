import { ImagePlus, Loader2, Lock, X } from 'lucide-react'
import { useRef, useState } from 'react'
import { Link } from 'react-router'
import { Button } from '@/components/ui/button'
import { serverMessage } from '@/lib/api-client'
import { toast } from '@/lib/use-toast'
import { cn } from '@/lib/utils'
import { uploadLogo } from '../api/generator-api'
import { isImageFile, presetLogoFile, presetLogos, presetLogoUrl, type PresetLogo } from '../lib/preset-logos'
import type { ChosenLogo } from '../lib/logo'
import type { LogoSize } from '../lib/style'
import { OptionGroup } from './option-group'

interface LogoTabProps {
  signedIn: boolean
  logo: ChosenLogo | null
  onLogoChange: (logo: ChosenLogo | null) => void
  logoSize: LogoSize
  onLogoSizeChange: (size: LogoSize) => void
}

export function LogoTab({ signedIn, logo, onLogoChange, logoSize, onLogoSizeChange }: LogoTabProps) {
  const fileInput = useRef<HTMLInputElement>(null)
  const [busy, setBusy] = useState<string | null>(null)

  const upload = async (file: File, key: string, preset?: PresetLogo) => {
    setBusy(key)
    try {
      const answer = await uploadLogo(file)
      onLogoChange({
        id: answer.id,
        fileName: answer.fileName,
        src: preset ? presetLogoUrl(preset) : (answer.logoUrl ?? `/logo/${answer.id}`),
        preset: preset?.id,
      })
    } catch (error) {
      toast({ title: 'Logo upload failed', description: serverMessage(error) ?? 'Please try another image.', variant: 'destructive' })
    } finally {
      setBusy(null)
    }
  }

  const choosePreset = async (preset: PresetLogo) => {
    let file: File
    try {
      file = await presetLogoFile(preset)
    } catch (error) {
      // The spec has preset load failures only logged.
      console.error(error)
      return
    }
    await upload(file, preset.id, preset)
  }

  const chooseFile = (file: File | undefined) => {
    if (!file) return
    if (!isImageFile(file)) {
      toast({ title: 'Not an image', description: 'Please choose an image file (PNG, JPEG, GIF or WebP).', variant: 'destructive' })
      return
    }
    void upload(file, 'upload')
  }

  return (
    <div className="grid gap-4">
      {!signedIn && (
        <div role="status" className="flex items-start gap-3 rounded-lg border border-violet-200 bg-violet-50 p-3 text-sm text-violet-800">
          <Lock className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <p>
            <strong className="font-semibold">Logo features require an account!</strong>{' '}
            <Link to="/auth?mode=register" className="font-semibold underline underline-offset-2">
              Sign up for free
            </Link>{' '}
            to add custom branding.
          </p>
        </div>
      )}
      <fieldset
        disabled={!signedIn}
        aria-label="Logo options"
        className={cn('grid gap-5', !signedIn && 'pointer-events-none select-none opacity-60 blur-[2px]')}
        aria-hidden={!signedIn || undefined}
      >
        <div className="grid gap-2">
          <span className="text-sm font-medium text-slate-700">Upload your logo</span>
          <div className="flex flex-wrap items-center gap-3">
            <Button type="button" variant="outline" onClick={() => fileInput.current?.click()} disabled={busy !== null}>
              {busy === 'upload' ? <Loader2 className="animate-spin" aria-hidden="true" /> : <ImagePlus aria-hidden="true" />}
              Upload image
            </Button>
            <input
              ref={fileInput}
              type="file"
              accept="image/*"
              aria-label="Logo file"
              className="sr-only"
              tabIndex={-1}
              onChange={(e) => {
                chooseFile(e.target.files?.[0])
                e.target.value = ''
              }}
            />
            {logo && (
              <span className="inline-flex items-center gap-2 rounded-lg border border-slate-200 bg-slate-50 py-1 pl-1 pr-2 text-sm text-slate-700">
                <img src={logo.src} alt="" className="size-7 rounded object-contain" />
                <span className="max-w-40 truncate">{logo.fileName}</span>
                <button
                  type="button"
                  className="cursor-pointer rounded p-0.5 text-slate-500 hover:bg-slate-200 hover:text-slate-900"
                  onClick={() => onLogoChange(null)}
                  aria-label="Remove logo"
                >
                  <X className="size-4" aria-hidden="true" />
                </button>
              </span>
            )}
          </div>
          <p className="text-xs text-slate-500">PNG, JPEG, GIF or WebP, up to 2 MB.</p>
        </div>

        <div className="grid gap-2">
          <span className="text-sm font-medium text-slate-700">Or pick a preset</span>
          <div className="grid grid-cols-3 gap-2 sm:grid-cols-5">
            {presetLogos.map((preset) => {
              const selected = logo?.preset === preset.id
              return (
                <button
                  key={preset.id}
                  type="button"
                  aria-pressed={selected}
                  aria-label={preset.label}
                  disabled={busy !== null}
                  onClick={() => void choosePreset(preset)}
                  className={cn(
                    'flex cursor-pointer flex-col items-center gap-1.5 rounded-xl border p-2 text-xs font-medium text-slate-600 transition-colors hover:border-slate-400 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary disabled:cursor-wait',
                    selected ? 'border-primary bg-primary-50 ring-1 ring-primary' : 'border-slate-200 bg-white',
                  )}
                >
                  {busy === preset.id ? (
                    <Loader2 className="size-10 animate-spin p-2 text-primary" aria-hidden="true" />
                  ) : (
                    <img src={presetLogoUrl(preset)} alt="" className="size-10" />
                  )}
                  <span className="truncate">{preset.label}</span>
                </button>
              )
            })}
          </div>
        </div>

        <OptionGroup
          label="Logo size"
          value={logoSize}
          onChange={onLogoSizeChange}
          options={[
            { value: 'small', label: 'Small' },
            { value: 'medium', label: 'Medium' },
            { value: 'large', label: 'Large' },
          ]}
        />
      </fieldset>
    </div>
  )
}
