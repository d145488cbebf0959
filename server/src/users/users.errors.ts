/** Every message user administration answers with; asserted in tests. */
export const USER_ADMIN_ERRORS = {
  forbidden: 'Forbidden',
  ownRole: 'You cannot change your own role',
  residentAssigns: 'Residents may only assign the resident role',
  touchAdmin: 'Only an admin may change an admin',
  lastAdmin: 'The last admin must stay an admin',
  lockSelf: 'You cannot lock your own account',
  lockAdmin: 'Only an admin may lock or unlock an admin',
  lockLastAdmin: 'The last admin cannot be locked',
  notFound: 'User not found',
  unknownRole: 'Unknown role',
  namesRequired: 'First name and last name are required',
  namesTooLong: 'First name and last name must be at most 64 characters',
  lockFlag: 'lock must be true or false',
  resetAccess: 'reset_access must be true or false',
  resetWithoutRole: 'reset_access goes with a role',
  // docs/api.md#preferences
  hideExamples: 'hide_examples must be true or false',
  noPreference: 'Nothing to change: give hide_examples',
} as const;
