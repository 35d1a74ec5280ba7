import { z } from 'zod'
import type { TFunction } from 'i18next'

/** Re-authentication before a deletion: the current password, required. */
export const deletionSchema = (t: TFunction) =>
  z.object({
    password: z.string().min(1, t('validation.required')).max(1000, t('validation.required')),
  })
export type DeletionForm = z.infer<ReturnType<typeof deletionSchema>>
