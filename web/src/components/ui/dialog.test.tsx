import { act, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { toast } from '@/lib/use-toast'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from './dialog'
import { Toaster } from './toaster'

/** A dialog opened by a button, whose Save shows a toast (as a dialog's action does). */
function RenameDialog({ onOpenChange }: { onOpenChange?: (open: boolean) => void }) {
  const [open, setOpen] = useState(false)
  const change = (next: boolean) => {
    onOpenChange?.(next)
    setOpen(next)
  }
  return (
    <>
      <button type="button" onClick={() => change(true)}>
        Rename
      </button>
      <Dialog open={open} onOpenChange={change}>
        <DialogContent>
          <DialogTitle>Rename the QR code</DialogTitle>
          <DialogDescription>Give it a name you will find it by.</DialogDescription>
          <input aria-label="Name" />
          <input aria-label="Colour" role="combobox" aria-expanded="true" aria-controls="colours" />
          <button type="button" onClick={() => toast({ title: 'Name saved' })}>
            Save
          </button>
        </DialogContent>
      </Dialog>
    </>
  )
}

/** The dialog and the app's toaster, as the app mounts them. */
function renderWithToaster(onOpenChange?: (open: boolean) => void) {
  render(
    <>
      <RenameDialog onOpenChange={onOpenChange} />
      <Toaster />
    </>,
  )
}

async function openDialog(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Rename' }))
  return screen.findByRole('dialog')
}

describe('dialog and toast', () => {
  it('closes the dialog on the first Escape when a toast came up while it was open', async () => {
    const user = userEvent.setup()
    const onOpenChange = vi.fn()
    renderWithToaster(onOpenChange)
    await openDialog(user)
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Name saved')).toBeInTheDocument()
    await user.click(screen.getByLabelText('Name'))
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument(), { timeout: 1000 })
    expect(onOpenChange.mock.calls).toEqual([[true], [false]])
    // Focus goes back to the button that opened the dialog.
    expect(screen.getByRole('button', { name: 'Rename' })).toHaveFocus()
  })

  it('closes the dialog once on Escape with no toast', async () => {
    const user = userEvent.setup()
    const onOpenChange = vi.fn()
    renderWithToaster(onOpenChange)
    await openDialog(user)
    await user.click(screen.getByLabelText('Name'))
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument(), { timeout: 1000 })
    expect(onOpenChange.mock.calls).toEqual([[true], [false]])
  })

  it('closes the dialog on Escape when the toast was there before it opened', async () => {
    const user = userEvent.setup()
    renderWithToaster()
    act(() => {
      toast({ title: 'Copied' })
    })
    await openDialog(user)
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument(), { timeout: 1000 })
  })

  it('leaves the dialog open on Escape in a combobox whose list is open, toast or not', async () => {
    const user = userEvent.setup()
    renderWithToaster()
    await openDialog(user)
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await screen.findByText('Name saved')
    await user.click(screen.getByRole('combobox', { name: 'Colour' }))
    await user.keyboard('{Escape}')
    expect(screen.getByRole('dialog')).toBeInTheDocument()
  })

  it('still closes a toast on Escape when no dialog is open', async () => {
    const user = userEvent.setup()
    render(<Toaster />)
    act(() => {
      toast({ title: 'Copied' })
    })
    expect(screen.getByText('Copied')).toBeInTheDocument()
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByText('Copied')).not.toBeInTheDocument(), { timeout: 1000 })
  })
})
