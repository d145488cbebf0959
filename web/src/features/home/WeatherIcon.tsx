import { Cloud, CloudDrizzle, CloudLightning, CloudRain, CloudSun, Moon, Sun } from 'lucide-react';
import type { WeatherIcon as Kind } from './weather.sample.js';

const ICONS = {
  sun: Sun,
  'cloud-sun': CloudSun,
  cloud: Cloud,
  rain: CloudRain,
  drizzle: CloudDrizzle,
  storm: CloudLightning,
  moon: Moon,
} as const;

const LABELS: Record<Kind, string> = {
  sun: 'Sunny',
  'cloud-sun': 'Partly cloudy',
  cloud: 'Cloudy',
  rain: 'Rain',
  drizzle: 'Drizzle',
  storm: 'Thunderstorm',
  moon: 'Clear night',
};

export function WeatherIcon({ kind, size = 24 }: { kind: Kind; size?: number }) {
  const Icon = ICONS[kind];
  return (
    <Icon size={size} className={`weather-icon weather-icon--${kind}`} aria-label={LABELS[kind]} role="img" />
  );
}
