import { lazy, Suspense, type ComponentType } from 'react'
import { ChoiceInput } from './choice_input'
import { DateInput } from './date_input'
import { FileInput } from './file_input'
import { LocationInput } from './location_input'
import { PhoneInput } from './phone_input'
import { PictureChoiceInput } from './picture_choice_input'
import { RatingInput } from './rating_input'
import type { ChatInputProps } from './shared'
import { EmailInput, NumberInput, TextInput, UrlInput } from './text_inputs'

// Stripe's SDK is only fetched by the bots that take payments.
const PaymentInput = lazy(() =>
  import('./payment_input').then((module) => ({ default: module.PaymentInput }))
)

/** One component per input block type (the block's `type` string of the bot format). */
const INPUTS: Record<string, ComponentType<ChatInputProps>> = {
  'text input': TextInput,
  'number input': NumberInput,
  'email input': EmailInput,
  'url input': UrlInput,
  'date input': DateInput,
  'phone number input': PhoneInput,
  'choice input': ChoiceInput,
  'picture choice input': PictureChoiceInput,
  'rating input': RatingInput,
  'file input': FileInput,
  'location input': LocationInput,
  'payment input': PaymentInput,
}

/** Unknown input types (a plugin newer than this page) still get a text field. */
export function ChatInputSwitch(props: ChatInputProps) {
  const Component = INPUTS[props.input.type] ?? TextInput
  return (
    <Suspense
      fallback={<div className="ms-auto h-24 w-full max-w-md animate-pulse rounded bg-black/5" />}
    >
      <Component {...props} />
    </Suspense>
  )
}
