import { zodResolver } from '@hookform/resolvers/zod'
import { Loader2 } from 'lucide-react'
import { useForm } from 'react-hook-form'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { TextField } from '@/components/ui/form-field'
import { fieldMessage } from '@/lib/api-client'
import { toast } from '@/lib/use-toast'
import { useSetCodePassword } from '../api/codes'
import { codePasswordSchema, type CodePasswordInput } from '../api/schemas'
import type { DynamicCode } from '../api/types'


/** Password: set or remove the password a scan of the code asks for before redirecting. */
export function PasswordDialog({ code, open, onOpenChange }: { code: DynamicCode; open: boolean; onOpenChange: (open: boolean) => void }) {
  const save = useSetCodePassword()
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<CodePasswordInput>({ resolver: zodResolver(codePasswordSchema), defaultValues: { password: '' } })

  const changeOpen = (next: boolean) => {
    if (!next) reset()
    onOpenChange(next)
  }
  const send = (password: string) =>
    save.mutate(
      { code, password },
      {
        onSuccess: () => {
          toast({ title: password ? 'Password set' : 'Password removed' })
          changeOpen(false)
        },
        onError: (error) => {
          const message = fieldMessage(error, 'password')
          setError('password', { message: message ?? 'The password could not be saved. Please try again.' })
        },
      },
    )

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Password</DialogTitle>
          <DialogDescription>
            {code.isProtected
              ? `“${code.name}” asks for a password before it opens. Set a new one or remove it.`
              : `Ask for a password when someone scans “${code.name}”, before it opens its destination.`}
          </DialogDescription>
        </DialogHeader>
        <form noValidate className="grid gap-4" onSubmit={handleSubmit(({ password }) => send(password))}>
          <TextField
            id={`code-password-${code.id}`}
            label={code.isProtected ? 'New password' : 'Password'}
            error={errors.password?.message}
            type="password"
            autoComplete="new-password"
            {...register('password')}
          />
          <DialogFooter>
            {code.isProtected && (
              <Button type="button" variant="outline" disabled={save.isPending} onClick={() => send('')}>
                Remove Password
              </Button>
            )}
            <Button type="button" variant="outline" onClick={() => changeOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
              Save Password
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
