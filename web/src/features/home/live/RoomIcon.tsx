import type { RoomIcon as RoomIconName } from '@hearth/contracts';
import {
  Archive,
  Armchair,
  Baby,
  Bath,
  BedDouble,
  BookOpen,
  Briefcase,
  Car,
  CookingPot,
  DoorOpen,
  Dumbbell,
  Flower2,
  Gamepad2,
  House,
  Lamp,
  Laptop,
  Refrigerator,
  Shirt,
  Sofa,
  Sun,
  Toilet,
  Trees,
  Tv,
  Utensils,
  Warehouse,
  WashingMachine,
} from 'lucide-react';

/** docs/rooms.md#icons: each room icon's lucide component. */
const ICONS = {
  house: House,
  sofa: Sofa,
  armchair: Armchair,
  tv: Tv,
  'bed-double': BedDouble,
  baby: Baby,
  'cooking-pot': CookingPot,
  utensils: Utensils,
  refrigerator: Refrigerator,
  bath: Bath,
  toilet: Toilet,
  shirt: Shirt,
  'washing-machine': WashingMachine,
  briefcase: Briefcase,
  laptop: Laptop,
  'book-open': BookOpen,
  'gamepad-2': Gamepad2,
  dumbbell: Dumbbell,
  'door-open': DoorOpen,
  lamp: Lamp,
  archive: Archive,
  warehouse: Warehouse,
  car: Car,
  trees: Trees,
  'flower-2': Flower2,
  sun: Sun,
} satisfies Record<RoomIconName, unknown>;

export function RoomIcon({ icon, size = 22 }: { icon: RoomIconName; size?: number }) {
  const Icon = ICONS[icon] ?? House;
  return (
    <span className="room-icon" data-icon={icon} aria-hidden="true">
      <Icon size={size} strokeWidth={1.75} />
    </span>
  );
}
