import { type CustomFormProps, HttpRequestTestForm } from '#sdk/forms'

/** The generated form plus "Test the request" (the SDK's form, shared with the services' webhooks). */
export default function HttpRequestForm(props: CustomFormProps) {
  return <HttpRequestTestForm {...props} blockType="Webhook" />
}
