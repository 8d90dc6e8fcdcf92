import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { json, stubFetch } from '@/test/render-app'
import { emptyContent, type PageType } from '../lib/page-types'
import { PageFields } from './page-fields'

/** The fields of a page of type, keeping what they change; content() reads it. */
function renderFields(type: PageType, initial = emptyContent(type), errors: Record<string, string> = {}) {
  let current = initial
  function Harness() {
    const [content, setContent] = useState(initial)
    return (
      <PageFields
        type={type}
        content={content}
        errors={errors}
        onChange={(c) => {
          current = c
          setContent(c)
        }}
      />
    )
  }
  render(<Harness />)
  return () => current
}

describe('menu fields', () => {
  it('sets dietary tags with labelled checkboxes, in the server order', async () => {
    const content = renderFields('menu')
    const dish = screen.getByRole('group', { name: 'Dietary tags (dish 1)' })
    await userEvent.click(within(dish).getByRole('checkbox', { name: 'spicy' }))
    // By keyboard: Space on the focused box.
    within(dish).getByRole('checkbox', { name: 'vegetarian' }).focus()
    await userEvent.keyboard(' ')
    expect((content().items as { dietary: string[] }[])[0].dietary).toEqual(['vegetarian', 'spicy'])
    await userEvent.click(within(dish).getByRole('checkbox', { name: 'spicy' }))
    expect((content().items as { dietary: string[] }[])[0].dietary).toEqual(['vegetarian'])
  })

  it('uploads a PDF as a menu file, labelled', async () => {
    const mock = stubFetch({ 'POST /api/upload-pdf': () => json({ id: 7, pdfUrl: 'https://qr.example/pdf/7', fileName: 'menu.pdf' }, 201) })
    const content = renderFields('menu')
    await userEvent.click(screen.getByRole('button', { name: 'Add file' }))
    await userEvent.type(screen.getByLabelText('Label (file 1)'), 'Wine list')
    await userEvent.upload(screen.getByLabelText('File (file 1)'), new File(['%PDF-1.4'], 'menu.pdf', { type: 'application/pdf' }))
    await screen.findByText('PDF uploaded')
    expect(content().files).toEqual([{ label: 'Wine list', url: 'https://qr.example/pdf/7' }])
    expect((mock.mock.calls[0][1]?.body as FormData).get('pdfFile')).toBeInstanceOf(File)
  })
})

describe('opening hours', () => {
  it('keeps more than one interval a day, each labelled, added and removed by keyboard', async () => {
    const content = renderFields('business')
    const monday = screen.getByRole('group', { name: 'Monday' })
    expect(within(monday).getByText('Closed')).toBeInTheDocument()
    within(monday).getByRole('button', { name: 'Add hours for Monday' }).focus()
    await userEvent.keyboard('{Enter}')
    await userEvent.keyboard('{Enter}')
    const spans = () => (content().hours as Record<string, { open: string; close: string }[]>).mon
    expect(spans()).toHaveLength(2)
    await userEvent.type(screen.getByLabelText('Monday opens (hours 1)'), '09:00')
    await userEvent.type(screen.getByLabelText('Monday closes (hours 1)'), '12:00')
    await userEvent.type(screen.getByLabelText('Monday opens (hours 2)'), '14:00')
    await userEvent.type(screen.getByLabelText('Monday closes (hours 2)'), '18:00')
    expect(spans()).toEqual([
      { open: '09:00', close: '12:00' },
      { open: '14:00', close: '18:00' },
    ])
    await userEvent.click(within(monday).getByRole('button', { name: 'Remove Monday hours (hours 1)' }))
    expect(spans()).toEqual([{ open: '14:00', close: '18:00' }])
    expect(screen.getByLabelText('Monday opens')).toHaveValue('14:00')
  })

  it('stops at four intervals and shows the server error at its field', () => {
    const four = Array.from({ length: 4 }, () => ({ open: '08:00', close: '09:00' }))
    renderFields('business', { ...emptyContent('business'), hours: { tue: four } }, { 'content.hours.tue.1.close': 'must be HH:MM' })
    const tuesday = screen.getByRole('group', { name: 'Tuesday' })
    expect(within(tuesday).queryByRole('button', { name: 'Add hours for Tuesday' })).toBeNull()
    const close = screen.getByLabelText('Tuesday closes (hours 2)')
    expect(close).toHaveAttribute('aria-invalid', 'true')
    expect(close).toHaveAccessibleDescription('must be HH:MM')
  })
})
