// Dismissible red alert (spec part 2 §2), max width 500, hides itself after 5 seconds (spec part 1 §4).
import { type BannerProps, TimedBanner } from './TimedBanner';

export function ErrorAlert(props: BannerProps) {
  return <TimedBanner kind="error" {...props} />;
}
