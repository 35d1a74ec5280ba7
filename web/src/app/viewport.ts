/**
 * Wider tablets get a fixed viewport width of 1080: a touch device
 * whose screen is wider than 767 px but narrower than 1080 px is laid out at
 * 1080 px and scaled; everything else uses the device width.
 */
export const MOBILE_MAX_WIDTH = 767
export const TABLET_VIEWPORT_WIDTH = 1080

export function viewportContent(screenWidth: number, coarsePointer: boolean): string {
  if (coarsePointer && screenWidth > MOBILE_MAX_WIDTH && screenWidth < TABLET_VIEWPORT_WIDTH) return `width=${TABLET_VIEWPORT_WIDTH}`
  return 'width=device-width, initial-scale=1'
}

export function applyViewport(): void {
  let meta = document.querySelector<HTMLMetaElement>('meta[name="viewport"]')
  if (!meta) {
    meta = document.createElement('meta')
    meta.name = 'viewport'
    document.head.appendChild(meta)
  }
  const coarse = typeof window.matchMedia === 'function' && window.matchMedia('(pointer: coarse)').matches
  const content = viewportContent(window.screen.width, coarse)
  if (meta.content !== content) meta.content = content
}

export function watchViewport(): () => void {
  applyViewport()
  window.addEventListener('resize', applyViewport)
  window.addEventListener('orientationchange', applyViewport)
  return () => {
    window.removeEventListener('resize', applyViewport)
    window.removeEventListener('orientationchange', applyViewport)
  }
}
