/** Secrets shared by every instance on one database (migration 0010). */
export interface SharedSecretsTable {
  name: string;
  value: string;
  created_at: string;
}

export interface SecretsTables {
  shared_secrets: SharedSecretsTable;
}
