/**
 * The credential form says when a field is needed: the Webhook Signing Secret only for the
 * Integration Service Trigger with Verify Signature on (docs/trigger.md, "The signing key").
 */
import { IntegrationServiceApi } from '../../credentials/IntegrationServiceApi.credentials';

test('Webhook Signing Secret: the form says which node needs it, and when', () => {
	const secret = new IntegrationServiceApi().properties.find((p) => p.name === 'signingSecret');
	expect(secret?.hint).toMatch(/only by the Integration Service Trigger/);
	expect(secret?.hint).toMatch(/Verify Signature is on/);
	expect(secret?.hint).toMatch(/empty for the Integration Service node and the Changes Trigger/);
});
