import * as ToastPrimitive from '@radix-ui/react-toast';
import { useEffect } from 'react';
import { dismissToast, TOAST_DURATION_MS, TOAST_SWIPE_THRESHOLD_PX, toastRegionShown, useToasts } from './toast-store';

/**
 * The toast area of the root (spec §2, §4): dense, no icons, a close button on each; closes on timeout, a swipe
 * right past 50 px, Escape or the button; Radix pauses the timer while the pointer or focus is over the area or the
 * window is in the background; F8 focuses the area. Imported at idle time by ./toaster.tsx: only this module imports
 * Radix Toast.
 */
export function ToastRegion() {
  const toasts = useToasts();
  useEffect(() => toastRegionShown(), []);
  return (
    <ToastPrimitive.Provider
      duration={TOAST_DURATION_MS}
      swipeDirection="right"
      swipeThreshold={TOAST_SWIPE_THRESHOLD_PX}
      label="Notification"
    >
      {toasts.map((item) => (
        <ToastPrimitive.Root
          key={item.id}
          open={item.open}
          onOpenChange={(open) => {
            if (!open) dismissToast(item.id);
          }}
          className={`toast toast-${item.variant}`}
          type={item.variant === 'destructive' ? 'foreground' : 'background'}
        >
          <div className="toast-text">
            <ToastPrimitive.Title className="toast-title">{item.title}</ToastPrimitive.Title>
            {item.description && (
              <ToastPrimitive.Description className="toast-description">{item.description}</ToastPrimitive.Description>
            )}
          </div>
          <ToastPrimitive.Close className="toast-close" aria-label="Close">
            <span aria-hidden="true">×</span>
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport className="toast-viewport" hotkey={['F8']} label="Notifications ({hotkey})" />
    </ToastPrimitive.Provider>
  );
}
