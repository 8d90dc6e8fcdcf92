import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { TextField } from '@/components/ui/form-field'
import { toast } from '@/lib/use-toast'
import { changePasswordSchema, type ChangePasswordInput } from '../schemas'

const fields = [
  { name: 'currentPassword', label: 'Current password', autoComplete: 'current-password' },
  { name: 'newPassword', label: 'New password', autoComplete: 'new-password' },
  { name: 'confirmPassword', label: 'Confirm new password', autoComplete: 'new-password' },
] as const

/**
 * The product contract has this dialog validate and confirm only: there is no
 * password-change call on the server yet.
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
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<ChangePasswordInput>({
    resolver: zodResolver(changePasswordSchema),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  })

  const close = (next: boolean) => {
    if (!next) reset()
    onOpenChange(next)
  }

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Change Password</DialogTitle>
          <DialogDescription>Choose a new password of at least 6 characters.</DialogDescription>
        </DialogHeader>
        <form
          noValidate
          className="grid gap-4"
          onSubmit={handleSubmit(() => {
            toast({ title: 'Password updated' })
            close(false)
          })}
        >
          {/* Lets password managers know which account the new password belongs to. */}
          <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
          {fields.map(({ name, label, autoComplete }) => (
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
            <Button type="submit">Update Password</Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
