import { ExchangeFlow } from '../components/ExchangeFlow'

/** Exchange of partner-airline miles (the ana variant). */
export default function PointsExchangeAnaPage() {
  return <ExchangeFlow ana />
}
