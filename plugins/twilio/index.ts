import { definePlugin, field } from '#sdk/plugin'

export const TWILIO_DEFAULT_BASE_URL = 'https://api.twilio.com'

/** The voice agent's defaults (docs/spec/03-integrations.md, "Limits and defaults"). */
export const VOICE_DEFAULTS = {
  language: 'en-US',
  voice: 'alice',
  /** Minutes: the longest the call may last. */
  timeout: 15,
  /** Seconds of silence that end the caller's answer. */
  pauseDetection: 2,
  /** How many times the question is asked again when no answer comes. */
  retries: 3,
  /** Seconds the call waits for the caller to start answering. */
  questionTimeout: 10,
} as const

const E164 = '^\\+[1-9]\\d{6,14}$'
const phone = (label: string, required: boolean, helperText?: string) =>
  field.string({
    label,
    placeholder: '+14155550123',
    allowVariables: true,
    required,
    pattern: E164,
    patternMessage: `${label} must be a phone number in international format (+14155550123)`,
    ...(helperText ? { helperText } : {}),
  })

/**
 * Twilio actions of a workflow: send an SMS, or place a voice call that says a message and
 * records the caller's spoken answer, through Twilio's REST API (2010-04-01, Basic auth
 * with the account SID and auth token).
 */
export default definePlugin({
  id: 'twilio',
  name: 'Twilio',
  description: 'Send SMS and place voice calls with Twilio',
  category: 'action',
  scope: 'workspace',
  icon: 'phone',
  version: 1,
  docsUrl: 'https://www.twilio.com/docs/usage/api',
  serves: ['workflow'],
  credentials: {
    accountSid: field.string({
      label: 'Account SID',
      placeholder: 'AC…',
      required: true,
      pattern: '^AC[0-9a-fA-F]{32}$',
      patternMessage: 'Account SID starts with AC followed by 32 hexadecimal characters',
      helperText: 'Twilio Console > Account Info.',
    }),
    authToken: field.string({ label: 'Auth token', secret: true, required: true }),
    phoneNumber: phone(
      'Phone number',
      false,
      'A Twilio number of the account, used as the sender unless a node gives one.'
    ),
    baseUrl: field.string({ label: 'API base URL', defaultValue: TWILIO_DEFAULT_BASE_URL }),
  },
  options: {
    credentialsId: field.credentials({
      label: 'Account',
      credentialType: 'twilio',
      required: true,
    }),
  },
  actions: {
    'Send SMS': {
      label: 'Send SMS',
      options: {
        to: phone('To', true),
        from: phone('From', false, "The account's phone number when empty."),
        body: field.string({
          label: 'Message',
          multiline: true,
          allowVariables: true,
          required: true,
          maxLength: 1600,
        }),
      },
    },
    'Make a call': {
      label: 'Make a call',
      options: {
        to: phone('To', true),
        from: phone('From', false, "The account's phone number when empty."),
        message: field.string({
          label: 'What the call says',
          multiline: true,
          allowVariables: true,
          required: true,
        }),
        language: field.string({
          label: 'Language',
          defaultValue: VOICE_DEFAULTS.language,
          placeholder: 'en-US',
        }),
        voice: field.string({
          label: 'Voice',
          defaultValue: VOICE_DEFAULTS.voice,
          helperText: 'alice, man, woman, or a Polly./Google. voice name.',
        }),
        timeout: field.number({
          label: 'Longest call (minutes)',
          min: 1,
          max: 240,
          defaultValue: VOICE_DEFAULTS.timeout,
        }),
        questionTimeout: field.number({
          label: 'Wait for an answer (seconds)',
          min: 1,
          max: 60,
          defaultValue: VOICE_DEFAULTS.questionTimeout,
        }),
        pauseDetection: field.number({
          label: 'Silence that ends an answer (seconds)',
          min: 1,
          max: 10,
          defaultValue: VOICE_DEFAULTS.pauseDetection,
        }),
        retries: field.number({
          label: 'Ask again when unanswered',
          min: 0,
          max: 10,
          defaultValue: VOICE_DEFAULTS.retries,
        }),
        answerUrl: field.string({
          label: 'Send the answer to',
          placeholder: 'https://…',
          allowVariables: true,
          helperText:
            "Twilio posts the caller's transcribed answer (SpeechResult) here, e.g. a workflow's webhook URL.",
        }),
      },
    },
  },
})
