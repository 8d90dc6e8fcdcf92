import { act, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { userQueryKey } from '@/lib/auth'
import { createQueryClient } from '@/lib/query-client'
import { alice, json, renderApp, stubFetch } from '@/test/render-app'

describe('verify email page', () => {
  it('keeps the new session when the page’s first read of the user answers after the confirmation', async () => {
    // The page's first GET /api/user went out with the old session's
    // cookie; confirming ends that session, so its answer is a 401.
    let answerFirstRead: (res: Response) => void = () => {}
    const firstRead = new Promise<Response>((resolve) => (answerFirstRead = resolve))
    stubFetch({ 'GET /api/user': () => firstRead, 'POST /api/verify-email': () => json(alice) })
    const queryClient = createQueryClient()
    renderApp('/verify-email?token=t1', queryClient)
    await userEvent.click(await screen.findByRole('button', { name: 'Confirm my email' }))
    expect(await screen.findByText('Your email address is confirmed.')).toBeInTheDocument()
    await act(async () => answerFirstRead(json({ message: 'Not authenticated' }, 401)))
    expect(queryClient.getQueryData(userQueryKey)).toEqual(alice)
    expect(await screen.findByRole('button', { name: 'Account menu' })).toBeInTheDocument()
  })
})
