import { CRM_ACCOUNT } from './crmAccount';
import { CRM_ACTIVITY } from './crmActivity';
import { crmWebhookResource } from './crmWebhook';
import { LOAN_FILE } from './loanFile';
import type { PublishedResource } from './published';

/** Every resource of the published endpoints (issue 30), by family, and the CRM's webhooks (issue 39). */
export const PUBLISHED_RESOURCES: readonly PublishedResource[] = [
	...CRM_ACTIVITY,
	...CRM_ACCOUNT,
	...LOAN_FILE,
	crmWebhookResource,
];
