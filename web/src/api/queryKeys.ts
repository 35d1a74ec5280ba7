/**
 * Query keys live in one place per feature. Build them with `featureKeys`:
 *
 *   export const bookingKeys = featureKeys('bookings')
 *   bookingKeys.all                      // ['bookings']
 *   bookingKeys.key('recent')            // ['bookings', 'recent']
 *   bookingKeys.key('search', condition) // ['bookings', 'search', {...}]
 *
 * A mutation invalidates by the same keys: queryClient.invalidateQueries({ queryKey: bookingKeys.all }).
 */
export function featureKeys<F extends string>(feature: F) {
  return {
    all: [feature] as const,
    key: <T extends readonly unknown[]>(...parts: T) => [feature, ...parts] as const,
  }
}

/** The shell's own keys (platform calls). `user` is shared: the account feature owns its edits. */
export const platformKeys = {
  session: ['session'] as const,
  sessionInfo: ['session', 'info'] as const,
  user: ['user'] as const,
  cookieConsent: ['platform', 'cookieConsent'] as const,
  topicBanner: ['platform', 'topicBanner'] as const,
  gogoPassStatus: ['platform', 'gogoPassStatus'] as const,
  couponTicketStatus: ['platform', 'couponTicketStatus'] as const,
}
