/** Full page loads, behind one object so tests can replace them (jsdom cannot navigate). */
export const pageNavigation = {
  replace(url: string): void {
    window.location.replace(url)
  },
  /** Leaves the app for another site (the booking site's hand-over address). */
  assign(url: string): void {
    window.location.assign(url)
  },
  reload(): void {
    window.location.reload()
  },
  /** Replaces the whole page with another document (a CDN's block page). */
  replaceDocument(html: string): void {
    document.open()
    document.write(html)
    document.close()
  },
}
