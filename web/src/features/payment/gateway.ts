/**
 * Tokenisation at the payment gateway, straight from the browser: the card
 * number and CVV go to the gateway only, never to /api. The
 * sandbox is mounted at /gateway on the same site; VITE_GATEWAY_URL points
 * elsewhere for an outside gateway.
 */
import { printedToApiExpiry } from './rules'

export const GATEWAY_URL: string = (import.meta.env.VITE_GATEWAY_URL as string | undefined) ?? '/gateway'

export interface CardToken {
  token: string
  gateway: string
  brand: string
  last4: string
  expirationDate: string
  holderName: string
}

/** The gateway refused the card: field → codes (required, digits, length, luhn, expired, format). */
export class TokenizeError extends Error {
  constructor(readonly fields: Record<string, string[]>) {
    super('card refused by the gateway')
    this.name = 'TokenizeError'
  }
}

/** Tokenises the card as the member typed it: the expiry "MM/YY" as printed goes to the gateway as its "YY/MM". */
export async function tokenizeCard(card: { cardNumber: string; expirationDate: string; cvv: string; holderName: string }): Promise<CardToken> {
  const expirationDate = printedToApiExpiry(card.expirationDate) ?? card.expirationDate.trim()
  const res = await globalThis.fetch(`${GATEWAY_URL}/v1/tokens`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...card, expirationDate, cardNumber: card.cardNumber.replace(/[\s-]/g, ''), holderName: card.holderName.trim() }),
  })
  const body = (await res.json().catch(() => ({}))) as Partial<CardToken> & { validationErrors?: Record<string, string[]> }
  if (res.status === 400 && body.validationErrors) throw new TokenizeError(body.validationErrors)
  if (!res.ok || typeof body.token !== 'string') throw new Error(`gateway: HTTP ${res.status}`)
  return body as CardToken
}
