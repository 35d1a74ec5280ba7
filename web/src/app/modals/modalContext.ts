import { createContext, useContext, type ReactNode } from 'react'
import type { ValidationErrors } from '@/api/errors'

/** Renders a modal; `close` removes it from the stack. */
export type ModalRender = (close: () => void, active: boolean) => ReactNode

export interface ErrorModalOptions {
  /**
   * Heading; by default "System error occurred." for a system failure (a
   * 5xx, no answer, no `error` given) and "Your request could not be
   * completed" for the server's answer to the request (a 4xx `error`).
   */
  title?: string
  /** Text; default the server's message of a 4xx `error`, else "Processing was interrupted because an error occurred." */
  message?: string
  /** The failure the modal is about: it picks the default heading and text. */
  error?: unknown
}

export interface Modals {
  /** Pushes a modal on the stack; returns its id. With an id already on the stack, nothing is added. */
  open(render: ModalRender, options?: { id?: string }): string
  close(id: string): void
  closeAll(): void
  /** The error-message modal. */
  openError(options?: ErrorModalOptions): string
  /**
   * The validation-error modal ("input error"): each field's label (from `labels`, else the key) and messages;
   * the key "something" shows "The process was not completed due to invalid value(s)".
   */
  openValidationErrors(errors: ValidationErrors, labels?: Record<string, string>): string
  /** The loading modal; close it with the returned id. */
  openLoading(): string
  /** Ids on the stack, bottom first. */
  readonly ids: readonly string[]
}

export const ModalContext = createContext<Modals | null>(null)

/** The modal stack: useModals().open(close => <Dialog title=… onDismiss={close}>…</Dialog>). */
export function useModals(): Modals {
  const ctx = useContext(ModalContext)
  if (!ctx) throw new Error('useModals outside ModalProvider')
  return ctx
}

/** Well-known modal ids (a second open with the same id is ignored). */
export const MODAL_IDS = {
  sessionTimedOut: 'session-timed-out',
  revisionError: 'revision-error',
  invalidEmail: 'invalid-email',
  globalMenu: 'global-menu',
  internalError: 'internal-error',
} as const
