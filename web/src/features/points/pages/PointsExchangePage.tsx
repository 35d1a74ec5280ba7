import { ExchangeFlow } from '../components/ExchangeFlow'

/** Exchange by an exchange code (the "other" variant). */
export default function PointsExchangePage() {
  return <ExchangeFlow ana={false} />
}
