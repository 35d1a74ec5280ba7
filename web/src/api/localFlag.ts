/**
 * A yes/no kept in this browser's localStorage under key ('1' or absent),
 * readable at once at start-up. Storage refused (private mode) reads as no
 * and keeps nothing: callers treat the flag as a hint.
 */
export function localFlag(key: string): { get(): boolean; set(on: boolean): void } {
  return {
    get() {
      try {
        return globalThis.localStorage?.getItem(key) === '1'
      } catch {
        return false
      }
    },
    set(on) {
      try {
        if (on) globalThis.localStorage?.setItem(key, '1')
        else globalThis.localStorage?.removeItem(key)
      } catch {
        // storage refused: the flag stays off
      }
    },
  }
}
