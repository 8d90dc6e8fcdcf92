/** What the server draws a saved code from: what it encodes, its logo and its style (the API's flat style fields). */
const drawnFrom = [
  'data', 'logoFilePath', 'errorCorrectionLevel', 'fgColor', 'bgColor', 'gradientColor', 'dotShape', 'cornerShape',
  'innerCornerShape', 'outerCornerColor', 'innerCornerColor', 'logoSize', 'enableFrame', 'frameText', 'frameColor',
  'frameTextColor', 'frameStyle',
] as const

/**
 * A short fingerprint of what the code's picture is drawn from. It goes in
 * the image's address, so a restyled, regenerated or re-logoed code gets a
 * new address and the browser, which keeps an <img>'s picture per address,
 * draws the new one at once.
 */
export function imageVersion(code: object) {
  const fields = code as Record<string, unknown>
  const text = JSON.stringify(drawnFrom.map((key) => fields[key] ?? null))
  let hash = 0x811c9dc5 // FNV-1a, 32 bits
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193)
  return (hash >>> 0).toString(36)
}
