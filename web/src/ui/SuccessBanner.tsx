// Green success banner (spec part 2 §2), max width 500, hides itself after 3 seconds (spec part 1 §4).
import { type BannerProps, TimedBanner } from './TimedBanner';

export function SuccessBanner(props: BannerProps) {
  return <TimedBanner kind="success" {...props} />;
}
