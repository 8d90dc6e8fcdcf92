import { useEffect, useRef } from 'react'
import { useSearchParams } from 'react-router'
import { toastFailure } from '@/lib/use-toast'
import { useActiveWorkspace } from '@/lib/workspace'
import { useActivateWorkspace } from '../api/workspaces'

/**
 * A link into a workspace, /dashboard?workspace=ID (the alert mails'):
 * makes it the active one, once, and drops the parameter. Renders nothing.
 */
export function WorkspaceFromLink() {
  const [searchParams, setSearchParams] = useSearchParams()
  const active = useActiveWorkspace()
  const activate = useActivateWorkspace()
  const asked = Number(searchParams.get('workspace'))
  const done = useRef(false)

  useEffect(() => {
    if (!asked || !active || done.current) return
    done.current = true
    const dropParam = () =>
      setSearchParams(
        (params) => {
          params.delete('workspace')
          return params
        },
        { replace: true },
      )
    if (asked === active.id) return dropParam()
    activate.mutate(asked, { onSettled: dropParam, onError: toastFailure('Could not open that workspace') })
  }, [asked, active, activate, setSearchParams])
  return null
}
