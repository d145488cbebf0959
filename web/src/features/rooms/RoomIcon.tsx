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
  type LucideIcon,
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
export const ROOM_ICON_COMPONENTS = {
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
} satisfies Record<RoomIconName, LucideIcon>;

/** An icon name as a label: `bed-double` → "Bed double", `gamepad-2` → "Gamepad 2". */
export const roomIconLabel = (icon: RoomIconName) => {
  const words = icon.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** A room's icon, decorative (the room's name says what it is). */
export function RoomIcon({ icon, size = 18 }: { icon: RoomIconName; size?: number }) {
  const Icon = ROOM_ICON_COMPONENTS[icon] ?? House;
  return <Icon size={size} aria-hidden="true" data-room-icon={icon} />;
}
