import { useEffect } from 'react'
import { setBrandTitle } from '@/lib/use-page-title'
import { CONFIG_ERROR, useWhiteLabelConfig } from '@/lib/white-label'

/**
 * Applies the brand of the host the site was opened on: its colours as the
 * theme's CSS variables, its favicon, its custom CSS and its title. The
 * default client changes nothing, and neither does a failed fetch: the site
 * keeps its default look and the error is recorded.
 */
export function WhiteLabelTheme() {
  const { data: config, error } = useWhiteLabelConfig()

  useEffect(() => {
    if (error) console.error(CONFIG_ERROR)
  }, [error])

  useEffect(() => {
    if (!config || config.isDefault) return
    const root = document.documentElement
    root.style.setProperty('--brand-primary', config.primaryColor)
    root.style.setProperty('--brand-secondary', config.secondaryColor)

    const style = document.createElement('style')
    style.id = 'white-label-css'
    // textContent, never innerHTML: the CSS cannot add markup.
    style.textContent = config.customCSS
    document.head.append(style)

    const icon = document.querySelector<HTMLLinkElement>('link[rel~="icon"]')
    const previousIcon = icon?.href
    if (icon && config.customFavicon) icon.href = config.customFavicon

    const previousTitle = document.title
    setBrandTitle(`${config.name} - QR Code Generator`)
    return () => {
      root.style.removeProperty('--brand-primary')
      root.style.removeProperty('--brand-secondary')
      style.remove()
      if (icon && previousIcon) icon.href = previousIcon
      setBrandTitle(undefined)
      document.title = previousTitle
    }
  }, [config])

  return null
}
