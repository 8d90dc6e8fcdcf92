import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { Dialog, DialogContent, DialogTitle } from '@/components/ui/dialog'
import { ChipPicker } from './chip-picker'

const countries = [
  ['DZ', 'Algeria'],
  ['DE', 'Germany'],
  ['NZ', 'New Zealand'],
  ['NE', 'Niger'],
  ['NG', 'Nigeria'],
] as const

/** A picker of countries in a dialog, as in the Edit Dynamic QR Code dialog. */
function Harness({ onChange = () => {} }: { onChange?: (value: string[]) => void }) {
  const [open, setOpen] = useState(true)
  const [value, setValue] = useState<string[]>([])
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogContent>
        <DialogTitle>Edit</DialogTitle>
        <ChipPicker
          id="countries"
          label="Countries"
          options={countries}
          value={value}
          onChange={(next) => {
            setValue(next)
            onChange(next)
          }}
        />
      </DialogContent>
    </Dialog>
  )
}

describe('chip picker', () => {
  it('closes only its list on Escape in a dialog; a second Escape closes the dialog', async () => {
    render(<Harness />)
    const dialog = await screen.findByRole('dialog', { name: 'Edit' })
    const box = within(dialog).getByRole('combobox', { name: 'Countries' })
    await userEvent.type(box, 'ni')
    expect(box).toHaveAttribute('aria-expanded', 'true')
    await userEvent.keyboard('{Escape}')
    expect(screen.getByRole('dialog', { name: 'Edit' })).toBeInTheDocument()
    expect(box).toHaveAttribute('aria-expanded', 'false')
    expect(box).toHaveValue('ni')
    await userEvent.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
  })

  it('lists the names that start with the query (or have a word that does) first, and Enter adds the first', async () => {
    const onChange = vi.fn()
    render(<Harness onChange={onChange} />)
    const box = await screen.findByRole('combobox', { name: 'Countries' })
    await userEvent.type(box, 'ger')
    expect(within(screen.getByRole('listbox')).getAllByRole('option').map((o) => o.textContent)).toEqual(['Germany', 'Algeria', 'Niger', 'Nigeria'])
    await userEvent.keyboard('{Enter}')
    expect(onChange).toHaveBeenLastCalledWith(['DE'])
    await userEvent.type(box, 'zea')
    expect(within(screen.getByRole('listbox')).getAllByRole('option').map((o) => o.textContent)).toEqual(['New Zealand'])
    await userEvent.clear(box)
    // A code typed in full comes first too.
    await userEvent.type(box, 'ng')
    expect(within(screen.getByRole('listbox')).getAllByRole('option')[0]).toHaveTextContent('Nigeria')
  })

  it('scrolls the option the arrows highlight into view', async () => {
    const scrolled = vi.spyOn(Element.prototype, 'scrollIntoView')
    render(<Harness />)
    const box = await screen.findByRole('combobox', { name: 'Countries' })
    await userEvent.type(box, 'i')
    await userEvent.keyboard('{ArrowDown}{ArrowDown}')
    const third = within(screen.getByRole('listbox')).getAllByRole('option')[2]
    expect(third).toHaveAttribute('aria-selected', 'true')
    expect(scrolled.mock.contexts.at(-1)).toBe(third)
    expect(scrolled).toHaveBeenLastCalledWith({ block: 'nearest' })
  })
})
