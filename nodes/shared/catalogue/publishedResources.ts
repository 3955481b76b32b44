import { CRM_ACCOUNT } from './crmAccount';
import { CRM_ACTIVITY } from './crmActivity';
import { LOAN_FILE } from './loanFile';
import type { PublishedResource } from './published';

/** Every resource of the published endpoints (issue 30), by family. */
export const PUBLISHED_RESOURCES: readonly PublishedResource[] = [
	...CRM_ACTIVITY,
	...CRM_ACCOUNT,
	...LOAN_FILE,
];
