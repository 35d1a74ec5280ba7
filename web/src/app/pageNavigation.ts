/** Full page loads, behind one object so tests can replace them (jsdom cannot navigate). */
export const pageNavigation = {
  replace(url: string): void {
    window.location.replace(url)
  },
  reload(): void {
    window.location.reload()
  },
}
