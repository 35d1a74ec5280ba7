import { SecurityLinks } from '@/features/security/components/SecurityLinks'

/** SLOT for the security feature: its pages, linked from the account page. */
export function AccountSecuritySlot() {
  return <SecurityLinks />
}
