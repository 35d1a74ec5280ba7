import { PassStatusPanel } from '@/features/passes/components/PassStatusPanel'

/** SLOT for the passes feature: the home page's pass status panel. */
export function PassStatusSlot() {
  return <PassStatusPanel />
}
