import { expect, test, type Locator, type Page } from '@playwright/test'
import { signUp, uniqueEmail } from '../support/accounts'

// The tests are independent (each signs up its own account): the two
// workers share them, so the suite does not end on one worker running
// this whole file alone.
test.describe.configure({ mode: 'parallel' })

// Issue 10 item 7: the colour picker's marks sit on the colour the area draws,
// the RGB boxes show "255" whole, and the dashboard and bulk page line up with the header.

/** The colour Chromium paints under a slider's mark, read from a screenshot of the slider with the mark hidden. */
async function colourUnderMark(page: Page, slider: Locator) {
  const mark = slider.locator('span').first()
  await slider.scrollIntoViewIfNeeded()
  const [box, markBox] = [await slider.boundingBox(), await mark.boundingBox()]
  if (!box || !markBox) throw new Error('the slider is not drawn')
  const at = { x: Math.round(markBox.x + markBox.width / 2 - box.x), y: Math.round(markBox.y + markBox.height / 2 - box.y) }
  await mark.evaluate((el) => ((el as HTMLElement).style.visibility = 'hidden'))
  const png = await slider.screenshot({ animations: 'disabled' })
  await mark.evaluate((el) => ((el as HTMLElement).style.visibility = ''))
  return page.evaluate(
    async ({ b64, x, y }) => {
      const img = new Image()
      img.src = `data:image/png;base64,${b64}`
      await img.decode()
      const canvas = document.createElement('canvas')
      canvas.width = img.width
      canvas.height = img.height
      const ctx = canvas.getContext('2d')!
      ctx.drawImage(img, 0, 0)
      // Inside the edges: the mark may sit on the area's border, where the rounded corner or focus ring is drawn.
      const px = Math.min(Math.max(x, 2), img.width - 3)
      const py = Math.min(Math.max(y, 2), img.height - 3)
      return Array.from(ctx.getImageData(px, py, 1, 1).data.slice(0, 3))
    },
    { b64: png.toString('base64'), ...at },
  )
}

const rgbOf = (hex: string) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16))

/** Each channel within a few units: the gradients are drawn with rounding. */
function expectNear(actual: number[], expected: number[]) {
  actual.forEach((v, i) => expect(Math.abs(v - expected[i]), `channel ${i} of [${actual}] vs [${expected}]`).toBeLessThanOrEqual(6))
}

async function typeHex(picker: Locator, hex: string) {
  const field = picker.getByLabel('HEX')
  await field.fill(hex)
  await field.press('Enter')
}

test('the colour picker marks sit on the colour shown, after typing and after switching tabs and pickers', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 1000 })
  await signUp(page, uniqueEmail('cosmetic'))
  await page.goto('/dashboard?create=true')
  const generator = page.getByRole('region', { name: 'Create QR Code' })
  await generator.getByRole('tab', { name: 'Colors' }).click()
  const main = generator.locator('fieldset').filter({ has: page.getByRole('slider', { name: 'QR code color: hue' }) })
  const area = main.getByRole('slider', { name: 'QR code color: saturation and lightness' })
  const hue = main.getByRole('slider', { name: 'QR code color: hue' })

  // A light colour sits in the upper half, where the white layer must match the lightness.
  await typeHex(main, '#99CCFF')
  expectNear(await colourUnderMark(page, area), rgbOf('#99CCFF'))
  expectNear(await colourUnderMark(page, hue), rgbOf('#0080FF'))

  // By channel: a dark red.
  await main.getByLabel('g', { exact: true }).fill('0')
  await main.getByLabel('b', { exact: true }).fill('0')
  await main.getByLabel('r', { exact: true }).fill('120')
  await expect(main.getByLabel('HEX')).toHaveValue('#780000')
  expectNear(await colourUnderMark(page, area), rgbOf('#780000'))

  // Leaving the sub-tab and coming back draws the picker again, on the same colour.
  await generator.getByRole('tab', { name: 'Edge and Center' }).click()
  await generator.getByRole('tab', { name: 'Shape Style' }).click()
  expectNear(await colourUnderMark(page, area), rgbOf('#780000'))

  // The second picker starts on its own colour, and typing in one picker leaves the other's marks on its colour.
  await generator.getByRole('radio', { name: 'Second Color' }).click()
  const second = generator.locator('fieldset').filter({ has: page.getByRole('slider', { name: 'Second color: hue' }) })
  const secondArea = second.getByRole('slider', { name: 'Second color: saturation and lightness' })
  const secondHex = await second.getByLabel('HEX').inputValue()
  expectNear(await colourUnderMark(page, secondArea), rgbOf(secondHex))
  await typeHex(second, '#336633')
  expectNear(await colourUnderMark(page, secondArea), rgbOf('#336633'))
  const firstArea = generator.getByRole('slider', { name: 'First color: saturation and lightness' })
  expectNear(await colourUnderMark(page, firstArea), rgbOf('#780000'))
})

for (const width of [360, 390, 768, 1024, 1280]) {
  test(`at ${width} px the RGB boxes show 255 whole, with one colour and with two`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 })
    await signUp(page, uniqueEmail('cosmetic'))
    await page.goto('/dashboard?create=true')
    const generator = page.getByRole('region', { name: 'Create QR Code' })
    await generator.getByRole('tab', { name: 'Colors' }).click()
    for (const mode of ['Single Color', 'Second Color']) {
      await generator.getByRole('radio', { name: mode }).click()
      for (const hex of await generator.getByLabel('HEX').all()) {
        await hex.fill('#FFFFFF')
        await hex.press('Enter')
      }
      // The colour channels (the gradient's angle box is a spinbutton too).
      const boxes = generator.getByRole('spinbutton', { name: /^[rgb]$/i })
      expect(await boxes.count()).toBe(mode === 'Single Color' ? 3 : 6)
      for (const box of await boxes.all()) {
        await expect(box).toHaveValue('255')
        // The text's width against the room the box gives it (its content box less any spin buttons).
        const fit = await box.evaluate((el) => {
          const input = el as HTMLInputElement
          const cs = getComputedStyle(input)
          const ctx = document.createElement('canvas').getContext('2d')!
          ctx.font = cs.font
          const text = ctx.measureText(input.value).width
          const room = input.clientWidth - Number.parseFloat(cs.paddingLeft) - Number.parseFloat(cs.paddingRight)
          const spin = getComputedStyle(input, '::-webkit-inner-spin-button').appearance
          return { text, room, spin }
        })
        const spinRoom = fit.spin === 'none' ? 0 : 15
        expect(fit.text, `"255" in ${JSON.stringify(fit)}`).toBeLessThanOrEqual(fit.room - spinRoom)
      }
    }
  })
}

for (const [width, path, heading] of [
  [768, '/dashboard', 'My QR Codes'],
  [1024, '/dashboard', 'My QR Codes'],
  [1280, '/dashboard', 'My QR Codes'],
  [1280, '/bulk-generation', 'Bulk QR Code Generation'],
] as const) {
  test(`at ${width} px ${path} lines up with the header`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 })
    await signUp(page, uniqueEmail('cosmetic'))
    await page.goto(path)
    const logo = page.getByRole('banner').getByRole('link', { name: 'Squarely home' })
    const title = page.getByRole('heading', { level: 1, name: heading })
    await expect(title).toBeVisible()
    const [a, b] = [await logo.boundingBox(), await title.boundingBox()]
    expect(Math.abs(a!.x - b!.x), `header at ${a!.x}, dashboard at ${b!.x}`).toBeLessThanOrEqual(1)
    // And the right edges of the two content boxes.
    const right = await page.evaluate(() => {
      const header = document.querySelector('header > div')!
      const main = document.querySelector('h1')!.closest('.mx-auto')!
      const edge = (el: Element) => {
        const r = el.getBoundingClientRect()
        return r.right - Number.parseFloat(getComputedStyle(el).paddingRight)
      }
      return [edge(header), edge(main)]
    })
    expect(Math.abs(right[0] - right[1])).toBeLessThanOrEqual(1)
  })
}
