/** docs/screens.md#home / docs/screens.md#weather-card: the weather card shows fixed sample data; nothing is fetched. */
export type WeatherIcon = 'sun' | 'cloud-sun' | 'cloud' | 'rain' | 'drizzle' | 'storm' | 'moon';

export interface ForecastItem {
  hour?: string;
  day?: string;
  icon: WeatherIcon;
  temp: number;
}

export const CURRENT_WEATHER = {
  temp: 18,
  description: 'Partly cloudy',
  high: 21,
  low: 12,
  location: 'Home',
  icon: 'cloud-sun' as WeatherIcon,
};

const hour = (h: number) => `${String(h).padStart(2, '0')}:00`;

/** Hourly slots 09, 12, 15, 18, 21 (docs/strings.md#constants-and-limits). */
export const TODAY: ForecastItem[] = [
  { hour: hour(9), icon: 'cloud', temp: 13 },
  { hour: hour(12), icon: 'cloud-sun', temp: 17 },
  { hour: hour(15), icon: 'sun', temp: 21 },
  { hour: hour(18), icon: 'cloud-sun', temp: 18 },
  { hour: hour(21), icon: 'moon', temp: 14 },
];

/** Seven days, Fri through Thu (docs/strings.md#constants-and-limits). */
export const WEEK: ForecastItem[] = [
  { day: 'Fri', icon: 'cloud-sun', temp: 21 },
  { day: 'Sat', icon: 'sun', temp: 23 },
  { day: 'Sun', icon: 'sun', temp: 24 },
  { day: 'Mon', icon: 'drizzle', temp: 18 },
  { day: 'Tue', icon: 'rain', temp: 16 },
  { day: 'Wed', icon: 'storm', temp: 15 },
  { day: 'Thu', icon: 'cloud', temp: 17 },
];
