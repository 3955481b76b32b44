import type { INodeProperties } from 'n8n-workflow';

import { flagLabel, flagsProperty, flagsReader } from './flags';

/** The channels of Communications Consent (spec 2.1). */
export const COMMUNICATION_CHANNELS = [
	'email',
	'call',
	'text',
	'massEmail',
	'postal',
	'visit',
] as const;

export function communicationsConsentProperty(
	overrides: Partial<INodeProperties> = {},
): INodeProperties {
	return flagsProperty(
		'communicationsConsent',
		'Communications Consent',
		COMMUNICATION_CHANNELS,
		(key) => `Whether the person consents to be contacted by ${flagLabel(key).toLowerCase()}`,
		{
			description: 'Consent per channel; channels you do not add are not sent',
			...overrides,
		},
	);
}

/** Communications Consent: a flag per channel. */
export const toCommunicationsConsent = flagsReader(COMMUNICATION_CHANNELS);
