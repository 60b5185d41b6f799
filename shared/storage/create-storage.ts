// Picks and opens the storage from the configuration. Apart from storage.ts so the implementations,
// which import the interface, do not import back.
import { LocalStorage } from './local.ts';
import { S3Storage } from './s3.ts';
import { assertValidBucket, storageConfigFrom, type Storage, type StorageConfig, type StorageSettings } from './storage.ts';

/** What a key is appended to for its public URL: `<PUBLIC_BASE_URL>/storage/<bucket>` or `<STORAGE_URL>/<bucket>`. */
export function storageBaseUrl(settings: StorageConfig | StorageSettings): string {
  const config = 'kind' in settings ? settings : storageConfigFrom(settings);
  const storage = config.kind === 'local' ? new LocalStorage(config) : new S3Storage(config);
  return storage.baseUrl;
}

/**
 * Opens the configured storage and makes it ready: the local bucket directory exists,
 * or the S3 bucket exists (created when missing).
 */
export async function createStorage(settings: StorageConfig | StorageSettings): Promise<Storage> {
  const config = 'kind' in settings ? settings : storageConfigFrom(settings);
  assertValidBucket(config.bucket);
  const storage = config.kind === 'local' ? new LocalStorage(config) : new S3Storage(config);
  await storage.ensureBucket();
  return storage;
}
