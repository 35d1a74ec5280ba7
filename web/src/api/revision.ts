/** The build revision this page was built with (Makefile passes VITE_REVISION). */
export const PAGE_REVISION: string = import.meta.env.VITE_REVISION || 'dev'

export function revisionsDiffer(ours: string, theirs: string | null | undefined): theirs is string {
  if (!theirs || theirs === 'dev' || ours === 'dev') return false
  return theirs !== ours
}

export type RevisionAction = { kind: 'reload'; url: string } | { kind: 'modal' }

/**
 * What to do when the server answers with another revision: reload
 * once with `rev=<server revision>` in the query; if the page already carries
 * that `rev`, reloading did not help, so show the revision-error modal.
 */
export function revisionAction(currentHref: string, theirs: string): RevisionAction {
  const url = new URL(currentHref)
  if (url.searchParams.get('rev') === theirs) return { kind: 'modal' }
  url.searchParams.set('rev', theirs)
  return { kind: 'reload', url: url.pathname + url.search + url.hash }
}
