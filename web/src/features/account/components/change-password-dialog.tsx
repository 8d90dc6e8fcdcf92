import { zodResolver } from '@hookform/resolvers/zod'
import { Loader2 } from 'lucide-react'
import { useForm } from 'react-hook-form'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { TextField } from '@/components/ui/form-field'
import { useUser } from '@/lib/auth'
import { useChangePassword } from '../api/change-password'
import { changePasswordSchema, firstPasswordSchema, type ChangePasswordInput } from '../schemas'
import { showServerFieldErrors } from '@/lib/form-errors'

const fields = [
  { name: 'currentPassword', label: 'Current password', autoComplete: 'current-password' },
  { name: 'newPassword', label: 'New password', autoComplete: 'new-password' },
  { name: 'confirmPassword', label: 'Confirm new password', autoComplete: 'new-password' },
] as const

/**
 * Changes the password with POST /api/change-password. An account without a
 * password yet (Google, trial) is not asked for the current one. The server
 * signs out every other session of the account.
 */
export function ChangePasswordDialog({
  username,
  open,
  onOpenChange,
}: {
  username: string
  open: boolean
  onOpenChange: (open: boolean) => void
}) {
  const { data: user } = useUser()
  const firstPassword = user?.hasPassword === false
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<ChangePasswordInput>({
    resolver: zodResolver(firstPassword ? firstPasswordSchema : changePasswordSchema),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  })

  const close = (next: boolean) => {
    if (!next) reset()
    onOpenChange(next)
  }
  const mutation = useChangePassword(() => close(false))

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{firstPassword ? 'Set a Password' : 'Change Password'}</DialogTitle>
          <DialogDescription>
            {firstPassword
              ? 'Your account has no password yet. Choose one of at least 6 characters to sign in with your email too.'
              : 'Choose a new password of at least 6 characters. Your other devices will be signed out.'}
          </DialogDescription>
        </DialogHeader>
        <form noValidate className="grid gap-4" onSubmit={handleSubmit((values) =>
            mutation.mutate(values, {
              onError: (error) => showServerFieldErrors(error, setError, ['currentPassword', 'newPassword', 'confirmPassword']),
            }),
          )}>
          {/* Lets password managers know which account the new password belongs to. */}
          <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
          {fields
            .filter(({ name }) => !(firstPassword && name === 'currentPassword'))
            .map(({ name, label, autoComplete }) => (
              <TextField
                key={name}
                id={name}
                label={label}
                error={errors[name]?.message}
                type="password"
                autoComplete={autoComplete}
                {...register(name)}
              />
            ))}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => close(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={mutation.isPending}>
              {mutation.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
              Update Password
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
