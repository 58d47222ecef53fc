"""The state views passed by reference: one pointer from handler to handler, not 29 arrays.

Numba passes a namedtuple by value, flattened into its arrays' fields: the state's 29
views are over 200 machine words at every call, which every compiled function unpacks
and LLVM optimises again at every call site. That was nearly half of the first compile
(``benchmarks/compile_time.py``), and slowed the compiled code by a third. :func:`borrow`
instead stores the views once, on the stack of the entry point that built them, and hands
on a :class:`StateRef`: a pointer whose attributes read like the namedtuple's (``state.res``,
``state.hand``).

The views live as long as the entry point's call, which outlives every handler it calls;
a ``StateRef`` is only ever passed down, never returned or kept. Numba counts no reference
through it, so it may only point at views that own nothing: the state's views borrow the
buffer that the entry point's Python caller holds (:func:`tribune_env.kernel.views`, its
one user). A tuple holding arrays numba allocated would be freed under it.
"""

from numba.core import cgutils, types
from numba.core.imputils import impl_ret_borrowed
from numba.core.typing.templates import AttributeTemplate
from numba.extending import infer_getattr, intrinsic, lower_getattr_generic, models, register_model


class StateRef(types.Type):
    """Numba type of a pointer to a namedtuple of views (``views_type``)."""

    def __init__(self, views_type):
        self.views_type = views_type
        super().__init__(name=f"StateRef({views_type})")


@register_model(StateRef)
class _StateRefModel(models.PrimitiveModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, dmm.lookup(fe_type.views_type).get_data_type().as_pointer())


@intrinsic
def borrow(typingctx, views):
    """A StateRef to `views` (arrays that own no memory), stored on the stack of the function that calls this."""

    def codegen(context, builder, signature, args):
        model = context.data_model_manager[views]
        slot = cgutils.alloca_once(builder, model.get_data_type())
        builder.store(model.as_data(builder, args[0]), slot)
        return slot

    return StateRef(views)(views), codegen


@infer_getattr
class _StateRefAttributes(AttributeTemplate):
    key = StateRef

    def generic_resolve(self, ref, attr):
        if attr in ref.views_type.fields:
            return ref.views_type.types[ref.views_type.fields.index(attr)]


@lower_getattr_generic(StateRef)
def _state_ref_attribute(context, builder, ref, value, attr):
    i = ref.views_type.fields.index(attr)
    view = ref.views_type.types[i]
    data = builder.load(cgutils.gep_inbounds(builder, value, 0, i))
    return impl_ret_borrowed(context, builder, view, context.data_model_manager[view].from_data(builder, data))
