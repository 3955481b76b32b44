/**
 * The form of each compound field, kept importable from here: each now lives with its reader in
 * fields/ (contact values, addresses, Communications Consent, Entities to Sync).
 */
export { addressesProperty } from './fields/addresses';
export { communicationsConsentProperty } from './fields/consent';
export { contactValuesProperty } from './fields/contactValues';
export { entitiesToSyncProperty } from './fields/entitiesToSync';
