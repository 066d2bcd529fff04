import { useTranslation } from 'react-i18next'
import { type CustomFormProps, HttpRequestTestForm } from '#sdk/forms'

/** The HTTP request form, its Test button sending Zapier the sample payload it waits for. */
export default function ZapierForm(props: CustomFormProps) {
  const { t } = useTranslation()
  return (
    <HttpRequestTestForm
      {...props}
      blockType="Zapier"
      hint={t('httpRequestTest.serviceHint', { service: 'Zapier' })}
    />
  )
}
