/** Profile pictures, re-encoded, kept in the database (migration 0009). */
export interface ProfilePicturesTable {
  /** The random name users.profile_picture holds; never reused. */
  name: string;
  user_id: string;
  content_type: string;
  data: Buffer;
  created_at: string;
}

export interface PicturesTables {
  profile_pictures: ProfilePicturesTable;
}
