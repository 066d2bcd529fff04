import { definePlugin, field } from '#sdk/plugin'

export const TWILIO_DEFAULT_BASE_URL = 'https://api.twilio.com'

/** The voice agent's defaults. */
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

/** The AI voice agent's defaults. */
export const VOICE_AGENT_DEFAULTS = {
  /** The most tokens of one answer of the model: a spoken answer stays short. */
  maxTokens: 150,
  /** Answers of the model before the call ends. */
  maxConversationTurns: 10,
  systemPrompt: 'You are a helpful AI assistant.',
  model: 'gpt-4o-mini',
  greeting: 'Hello! How can I help you today?',
  noAnswer: 'Sorry, I did not hear you. Could you say that again?',
  farewell: 'Thank you for calling. Goodbye!',
  endPhrases: 'goodbye, bye',
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

/** How the call sounds and waits: shared by both call actions. */
const voiceFields = () => ({
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
})

/**
 * Twilio actions of a workflow: send an SMS, place a voice call that says a message and
 * records the caller's spoken answer, or place a call where an AI model talks with the
 * caller turn by turn, through Twilio's REST API (2010-04-01, Basic auth with the account
 * SID and auth token). The AI call's turns: voice_agent.ts (README.md).
 */
export default definePlugin({
  id: 'twilio',
  name: 'Twilio',
  fullName: 'Twilio SMS and calls',
  tags: ['sms', 'phone', 'whatsapp', 'message'],
  description: 'Send SMS and place voice calls, with an AI agent if you like, through Twilio',
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
    baseUrl: field.string({
      format: 'url',
      label: 'API base URL',
      defaultValue: TWILIO_DEFAULT_BASE_URL,
    }),
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
        ...voiceFields(),
        answerUrl: field.string({
          label: 'Send the answer to',
          placeholder: 'https://…',
          allowVariables: true,
          helperText:
            "Twilio posts the caller's transcribed answer (SpeechResult) here, e.g. a workflow's webhook URL.",
        }),
      },
    },
    'AI voice call': {
      label: 'AI voice call',
      options: {
        to: phone('To', true),
        from: phone('From', false, "The account's phone number when empty."),
        greeting: field.string({
          label: 'Greeting',
          multiline: true,
          allowVariables: true,
          required: true,
          defaultValue: VOICE_AGENT_DEFAULTS.greeting,
        }),
        aiCredentialsId: field.credentials({
          label: 'AI account',
          credentialType: 'openai',
          required: true,
          helperText: 'An OpenAI (or OpenAI-compatible) account answers the caller.',
        }),
        model: field.string({
          label: 'Model',
          defaultValue: VOICE_AGENT_DEFAULTS.model,
          allowVariables: true,
        }),
        systemPrompt: field.string({
          label: 'System prompt',
          multiline: true,
          allowVariables: true,
          defaultValue: VOICE_AGENT_DEFAULTS.systemPrompt,
        }),
        maxTokens: field.number({
          label: 'Max tokens per answer',
          min: 1,
          max: 4096,
          defaultValue: VOICE_AGENT_DEFAULTS.maxTokens,
        }),
        maxConversationTurns: field.number({
          label: 'Max conversation turns',
          min: 1,
          max: 100,
          defaultValue: VOICE_AGENT_DEFAULTS.maxConversationTurns,
          helperText: 'The call ends after this many answers of the AI.',
        }),
        endPhrases: field.string({
          label: 'Words that end the call',
          defaultValue: VOICE_AGENT_DEFAULTS.endPhrases,
          helperText: 'Comma-separated: the call ends when the caller says one of them.',
        }),
        noAnswerMessage: field.string({
          label: 'When the caller is silent',
          allowVariables: true,
          defaultValue: VOICE_AGENT_DEFAULTS.noAnswer,
        }),
        farewell: field.string({
          label: 'Farewell',
          allowVariables: true,
          defaultValue: VOICE_AGENT_DEFAULTS.farewell,
        }),
        ...voiceFields(),
      },
    },
  },
})
