/** Texts of the scene buttons (docs/strings.md#scenes-texts). */
export const SCENES_MESSAGES = {
  scenes: 'Scenes',
  apply: (name: string) => `Apply scene ${name}`,
  applied: (name: string) => `${name} applied`,
  partly: (name: string, failed: number, total: number) =>
    `${name}: ${failed} of ${total} devices did not take it`,
  saveAsScene: 'Save as scene',
  saveTitle: 'Save current as scene',
  saveHint: 'The devices of this room keep the values they have now in the scene.',
  saveSelectionHint: 'The selected devices keep the values they have now in the scene.',
  name: 'Name',
  save: 'Save',
  cancel: 'Cancel',
  saved: (name: string) => `Scene ${name} saved`,
} as const;
