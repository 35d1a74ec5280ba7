/**
 * The payment feature's public face for other features (points, passes):
 * the PaymentPanel of a purchase and the types it takes. Everything else in
 * this folder is private (ESLint allows only this file from other features).
 */
export { PaymentPanel, type PaymentPanelProps } from './components/PaymentPanel'
export { SentOrderCheck, useReturnToSentOrder } from './components/sentOrder'
export { PaymentSteps } from './components/PaymentSteps'
export { keepSale, keptSale } from './keptSale'
export { usePendingPayment, type ProductType, type ProductFields, type PaymentProcess } from './api'
export { PendingPaymentsNavItem, PendingPaymentsNotice } from './components/PendingPayments'
