import { type RoutingConfig } from './routing-config.js';

const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

/** Whether `at` falls inside the configured business hours, read in the configured time zone. */
export function withinBusinessHours(at: Date, config: Pick<RoutingConfig, 'timezone' | 'business_hours'>): boolean {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: config.timezone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const get = (type: string): string => parts.find((p) => p.type === type)?.value ?? '';
  const day = WEEKDAYS.find((d) => d === get('weekday').slice(0, 3).toLowerCase());
  const time = `${get('hour')}:${get('minute')}`;
  const { days, start, end } = config.business_hours;
  return day !== undefined && days.includes(day) && time >= start && time < end;
}
