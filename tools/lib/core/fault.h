/* fault.h - fault injection for the test suite, through the environment:
 * SR_FAULT, a comma-separated list of fault names, makes the code that
 * names one of them fail there on purpose (a kill at the wrong moment,
 * reproduced every time instead of waited for). Never set in use; the
 * names are listed in sareuse(7), ENVIRONMENT. */
#ifndef SR_FAULT_H
#define SR_FAULT_H

/* Whether SR_FAULT lists name. */
int sr_fault(const char *name);

#endif
