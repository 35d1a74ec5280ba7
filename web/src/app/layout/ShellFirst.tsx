import { createContext, useContext, useLayoutEffect, useState, type ReactNode } from 'react'

const PageHeldBack = createContext(false)

/**
 * The app's first render in two tasks: the shell (header, footer) in the
 * first, the page (<PageSlot>) in the next. Preact renders a tree in one
 * task; on a phone's CPU the shell and a form page together were one long
 * freeze after the first paint (total blocking time counts each task's
 * length over 50 ms, so two halves block for less than the whole). The page
 * follows within a frame or two; `.main` is a screen tall, so its arrival
 * moves nothing on screen. Only main.tsx wraps the app in it: without it
 * (tests, later navigations) the page renders with the shell.
 */
export function ShellFirst({ children }: { children: ReactNode }) {
  const [held, setHeld] = useState(true)
  useLayoutEffect(() => {
    const id = setTimeout(() => setHeld(false))
    return () => clearTimeout(id)
  }, [])
  return <PageHeldBack.Provider value={held}>{children}</PageHeldBack.Provider>
}

/** Where the page goes in the layout: empty during the shell's first task under <ShellFirst>. */
export function PageSlot({ children }: { children: ReactNode }) {
  return useContext(PageHeldBack) ? null : <>{children}</>
}
