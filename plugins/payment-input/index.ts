import { answerVariableField, definePlugin, field, retryMessageField } from '#sdk/plugin'

/** Collects a payment through Stripe (the only provider), with the visitor's details. */
export default definePlugin({
  id: 'payment input',
  name: 'Payment',
  fullName: 'Payment (Stripe checkout)',
  tags: ['stripe', 'checkout', 'card', 'money'],
  description: 'Collect a payment',
  category: 'input',
  scope: 'workspace',
  icon: 'credit-card',
  version: 1,
  serves: ['bot'],
  showsContent: true,
  // A live pair, and a test pair used in preview when set (Stripe credentials).
  credentials: {
    livePublicKey: field.string({
      label: 'Live publishable key',
      placeholder: 'pk_live_...',
      required: true,
    }),
    liveSecretKey: field.string({
      label: 'Live secret key',
      placeholder: 'sk_live_...',
      secret: true,
      required: true,
    }),
    testPublicKey: field.string({
      label: 'Test publishable key',
      placeholder: 'pk_test_...',
      helperText: 'Used in preview when both test keys are set',
    }),
    testSecretKey: field.string({
      label: 'Test secret key',
      placeholder: 'sk_test_...',
      secret: true,
    }),
  },
  options: {
    provider: field.enum({ label: 'Provider', options: ['Stripe'], defaultValue: 'Stripe' }),
    credentialsId: field.credentials({
      label: 'Account',
      // Credential records are typed by the plugin id.
      credentialType: 'payment input',
      required: true,
    }),
    amount: field.string({
      label: 'Price amount',
      placeholder: '30.00',
      allowVariables: true,
      required: true,
    }),
    currency: field.string({ label: 'Currency', placeholder: 'USD', defaultValue: 'USD' }),
    labels: field.object({
      button: field.string({ label: 'Button label', defaultValue: 'Pay' }),
      success: field.string({ label: 'Success message', defaultValue: 'Success' }),
    }),
    additionalInformation: field.object(
      {
        name: field.string({ label: 'Name', placeholder: 'John Smith', allowVariables: true }),
        email: field.string({
          label: 'Email',
          placeholder: 'john@gmail.com',
          allowVariables: true,
        }),
        phoneNumber: field.string({
          label: 'Phone number',
          placeholder: '+33XXXXXXXXX',
          allowVariables: true,
        }),
        description: field.string({ label: 'Description', allowVariables: true }),
        address: field.object(
          {
            country: field.string({ label: 'Country', allowVariables: true }),
            line1: field.string({ label: 'Line 1', allowVariables: true }),
            line2: field.string({ label: 'Line 2', allowVariables: true }),
            state: field.string({ label: 'State', allowVariables: true }),
            city: field.string({ label: 'City', allowVariables: true }),
            postalCode: field.string({ label: 'Postal code', allowVariables: true }),
          },
          { label: 'Address' }
        ),
      },
      { label: 'Additional information' }
    ),
    retryMessageContent: retryMessageField('Payment failed. Please, try again.'),
    variableId: answerVariableField(),
  },
})
