import { describe, expect, it } from 'vitest'
import { zodMessages as messages } from '@/test/zod-messages'
import { changePasswordSchema } from './schemas'

describe('change password schema', () => {
  it('gives every message word for word', () => {
    expect(messages(changePasswordSchema.safeParse({ currentPassword: '', newPassword: '123', confirmPassword: '' }))).toEqual({
      currentPassword: 'Current password is required',
      newPassword: 'Password must be at least 6 characters',
      confirmPassword: 'Please confirm your new password',
    })
  })

  it('requires the confirmation to match', () => {
    expect(
      messages(changePasswordSchema.safeParse({ currentPassword: 'old', newPassword: '123456', confirmPassword: '654321' })),
    ).toEqual({ confirmPassword: "Passwords don't match" })
  })

  it('accepts a matching new password', () => {
    const result = changePasswordSchema.safeParse({ currentPassword: 'old', newPassword: '123456', confirmPassword: '123456' })
    expect(result.success).toBe(true)
  })
})
