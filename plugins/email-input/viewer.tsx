import { TextFieldInput, type ChatInputProps } from '#sdk/viewer'

/** The chat field of the block: the app's themed text field, as an email field. */
export default function EmailInput(props: ChatInputProps) {
  return <TextFieldInput {...props} kind="email" />
}
